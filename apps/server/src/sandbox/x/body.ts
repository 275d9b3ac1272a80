import type { FastifyInstance } from 'fastify';

/**
 * Media chunks arrive as multipart/form-data (`media` bytes, `segment_index`). The server only
 * parses multipart for its own upload routes, so the emulator reads it itself: the web-standard
 * FormData parser turns the body into fields, files as Buffers.
 */
export function registerXBodyParsers(scope: FastifyInstance) {
  scope.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer' },
    async (request: { headers: Record<string, unknown> }, body: Buffer) => {
      const type = String(request.headers['content-type'] ?? '');
      const form = await new Response(body, { headers: { 'content-type': type } }).formData();
      const fields: Record<string, string | Buffer> = {};
      for (const [name, value] of form)
        fields[name] = typeof value === 'string' ? value : Buffer.from(await value.arrayBuffer());
      return fields;
    },
  );
}
