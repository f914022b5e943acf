#!/usr/bin/env bash
# Starts Steady the way the README says (`npm start`, SQLite in ./data), checks that it answers on :3000, and
# that `npx steady invite` works beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
npm start >"$log" 2>&1 &
pid=$!
trap 'kill -- -$pid 2>/dev/null || kill $pid 2>/dev/null || true; pkill -f "node .*dist/server/main.js" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  if curl -fsS -o /dev/null http://localhost:3000/ 2>/dev/null; then break; fi
  sleep 0.5
done
status_page=$(curl -s -o /dev/null -w '%{http_code}' http://localhost:3000/)
status_me=$(curl -s -o /dev/null -w '%{http_code}' http://localhost:3000/api/me)
echo "GET / -> $status_page, GET /api/me -> $status_me"
if [ "$status_page" != 200 ] || [ "$status_me" != 401 ]; then
  echo "npm start did not serve as expected; its log:"; cat "$log"; exit 1
fi
for path in /api/openapi.json /api/docs /sw.js /manifest.webmanifest; do
  status=$(curl -s -o /dev/null -w '%{http_code}' "http://localhost:3000$path")
  [ "$status" = 200 ] || { echo "GET $path -> $status on the built server"; exit 1; }
done
grep -q '?invite=' "$log" || { echo "first start did not log an invite URL; its log:"; cat "$log"; exit 1; }

# The operator's way in, as the README says: the invite URL is the last line printed.
invite=$(npx --no-install steady invite --note smoke | tail -n 1)
case "$invite" in
  "http://localhost:3000/?invite="*) echo "npx steady invite -> $invite" ;;
  *) echo "npx steady invite did not print an invite URL last: $invite"; exit 1 ;;
esac
npx --no-install steady users >/dev/null

# A supervisor stops `npm start` with SIGTERM to npm: the server must get it and stop, not linger orphaned
# (the start script execs node, so the shell between them does not swallow the signal).
kill -TERM "$pid"
for _ in $(seq 1 40); do
  curl -fsS -o /dev/null http://localhost:3000/healthz 2>/dev/null || break
  sleep 0.5
done
if curl -fsS -o /dev/null http://localhost:3000/healthz 2>/dev/null; then
  echo "SIGTERM to npm start left the server running"; exit 1
fi
grep -q '"msg":"stopped"' "$log" || { echo "the server did not log its orderly stop; its log:"; cat "$log"; exit 1; }
echo "npm start smoke check passed"
