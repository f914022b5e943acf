// Stands in for the `yaml` package in the server build (scripts/build-server.mjs). @fastify/swagger loads it for
// YAML output and static specs, which Steady does not use (it serves /api/openapi.json); leaving its 160 kB out
// shortens the start (decision 0059). Calling it says so rather than failing obscurely.
function leftOut() {
  throw new Error('YAML is not part of the Steady server build (see scripts/yaml-left-out.cjs)');
}
module.exports = { parse: leftOut, stringify: leftOut };
