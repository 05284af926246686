import type { FastifyInstance } from 'fastify';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readOnlyEndpoint, sendRepresentation } from './respond.js';

/**
 * The API reference for people at /docs: Swagger UI, served from the swagger-ui-dist package
 * by this service (no other host is involved), rendering /v1/openapi.json.
 */

const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fxrates API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<noscript>This reference needs JavaScript. The OpenAPI document it shows is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/reference.js"></script>
</body>
</html>
`;

// No validator (it would send the document to another host) and no URL bar: this page shows
// this service's API only.
const START = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  displayOperationId: true,
  defaultModelsExpandDepth: -1,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/** A file of swagger-ui-dist without its source-map comment: the map stays in the package. */
async function packageFile(name: string): Promise<string> {
  const text = await readFile(join(SWAGGER_UI, name), 'utf8');
  return text.replace(/\/\*# sourceMappingURL=[^*]*\*\/|\/\/# sourceMappingURL=\S*/g, '');
}

const ASSETS: Record<string, { contentType: string; text: () => Promise<string> }> = {
  '/docs/swagger-ui.css': {
    contentType: 'text/css; charset=utf-8',
    text: () => packageFile('swagger-ui.css'),
  },
  '/docs/swagger-ui-bundle.js': {
    contentType: 'text/javascript; charset=utf-8',
    text: () => packageFile('swagger-ui-bundle.js'),
  },
  '/docs/reference.js': {
    contentType: 'text/javascript; charset=utf-8',
    text: async () => START,
  },
};

export function docsRoutes(app: FastifyInstance, version: string): void {
  readOnlyEndpoint(app, '/docs', { hide: true }, (request, reply) =>
    sendRepresentation(
      request,
      reply,
      { contentType: 'text/html; charset=utf-8', etagParts: ['docs', version], settled: false },
      () => PAGE,
    ),
  );
  // Read once, on first use: the bundle is large and most processes never serve it.
  const loaded = new Map<string, Promise<string>>();
  for (const [path, asset] of Object.entries(ASSETS)) {
    readOnlyEndpoint(app, path, { hide: true }, (request, reply) =>
      sendRepresentation(
        request,
        reply,
        // They change only with the program, which the version names.
        { contentType: asset.contentType, etagParts: [path, version], settled: true },
        () => {
          let text = loaded.get(path);
          if (text === undefined) {
            text = asset.text();
            loaded.set(path, text);
          }
          return text;
        },
      ),
    );
  }
}
