import { z } from 'zod';
import { attachmentDisposition } from '../file-names.js';
import { verifyDownload } from '../../auth/signed-url.js';
import { errorResponses } from '../common-responses.js';
import { ApiError } from '../errors.js';
import { defineRoute } from '../route.js';
import type { Services } from '../services.js';

export function documentRoutes(services: Services) {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/documents/:id/download',
      operationId: 'downloadDocument',
      summary: 'Download a created document through its signed link',
      description:
        'The downloadURL of the create endpoints points here. The signature and expiry in the query string stand in for the token.',
      tags: ['Documents'],
      auth: 'none',
      query: z.object({ expires: z.string().regex(/^\d+$/), signature: z.string().min(1) }),
      responses: {
        200: { description: 'The document', contentType: 'application/octet-stream' },
        ...errorResponses(400, 403, 404),
      },
      async handle({ query, request }) {
        const id = request.params.id ?? '';
        if (!verifyDownload(id, Number(query.expires), query.signature, services.signingSecret)) throw new ApiError('LINK_INVALID');
        const doc = await services.storage.documents.get(id);
        if (!doc) throw new ApiError('NOT_FOUND', { detail: 'The document no longer exists.' });
        return {
          body: await services.blobs.get(doc.blobKey),
          contentType: doc.contentType,
          headers: { 'Content-Disposition': attachmentDisposition(doc.fileName), 'Cache-Control': 'private, no-store' },
        };
      },
    }),
  ];
}
