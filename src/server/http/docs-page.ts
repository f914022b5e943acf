import type { OpenAPIV3_1 } from 'openapi-types';

/**
 * `GET /api/docs`: the OpenAPI document as one plain HTML page. No script, no inline style and no third-party
 * host, so it works under the app's Content-Security-Policy and offline (decision 0082).
 */
export function renderDocsPage(document: OpenAPIV3_1.Document): string {
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item?.[method];
      return operation ? [{ method, path, operation }] : [];
    }),
  );
  const info = document.info;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(info.title)}</title></head>
<body><main>
<h1>${escape(info.title)} ${escape(info.version)}</h1>
<p>${escape(info.description ?? '')}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escape(document.openapi)}).</p>
<nav><ul>${operations
    .map(
      ({ method, path }) => `<li><a href="#${anchor(method, path)}">${method.toUpperCase()} ${escape(path)}</a></li>`,
    )
    .join('')}</ul></nav>
${operations.map(({ method, path, operation }) => renderOperation(method, path, operation)).join('\n')}
</main></body></html>
`;
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

function renderOperation(method: string, path: string, operation: OpenAPIV3_1.OperationObject): string {
  const body = operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  const parameters = (operation.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
  const responses = Object.entries(operation.responses ?? {}) as [string, OpenAPIV3_1.ResponseObject][];
  return `<section id="${anchor(method, path)}">
<h2><code>${method.toUpperCase()} ${escape(path)}</code></h2>
<p>${escape(operation.summary ?? '')}</p>
${parameters.length > 0 ? `<h3>Parameters</h3><ul>${parameters.map((p) => `<li><code>${escape(p.name)}</code> (${escape(p.in)}) ${escape(p.description ?? '')}</li>`).join('')}</ul>` : ''}
${body ? `<h3>Request body</h3>${schemaBlock(body.content)}` : ''}
<h3>Answers</h3>
<dl>${responses.map(([status, response]) => `<dt>${escape(status)}</dt><dd>${schemaBlock(response.content)}</dd>`).join('')}</dl>
</section>`;
}

function schemaBlock(content: Record<string, OpenAPIV3_1.MediaTypeObject> | undefined): string {
  if (!content) return '';
  return Object.entries(content)
    .map(([type, media]) => `<p>${escape(type)}</p><pre>${escape(JSON.stringify(media.schema ?? {}, null, 2))}</pre>`)
    .join('');
}

function anchor(method: string, path: string): string {
  return `${method}-${path.replace(/[^a-zA-Z0-9]+/g, '-')}`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
