import type { VisionOperations, VisionRequest, VisionResponse } from './vision.types.js';

/**
 * A vision worker process (vision.pool.ts starts it and speaks to it over its IPC channel): face
 * analysis, a document's text and machine-readable zone, a proof of address's text. Each kind
 * loads its models on its first request (face models and Tesseract alike), so a worker that only
 * reads text never holds the face models, nor one that only judges faces Tesseract. Requests
 * overlap: OCR runs in Tesseract's thread while this event loop analyses a face.
 */

type Result = VisionOperations[keyof VisionOperations]['result'];

async function run(request: VisionRequest): Promise<Result> {
  switch (request.op) {
    case 'analyze':
      return (await import('./face-analysis.js')).analyze(request.image, request.expression);
    case 'readDocumentText':
      return (await import('./text-analysis.js')).readDocument(request.image, request.today);
    case 'readAddress':
      return (await import('./text-analysis.js')).readAddress(request.image);
  }
}

const reply = (response: VisionResponse) => process.send!(response);
process.on('message', (request: VisionRequest) => {
  run(request).then(
    (result) => reply({ id: request.id, ok: true, result }),
    (error: Error) => reply({ id: request.id, ok: false, error: error.message }),
  );
});
// the API process is gone (stopped, or killed): so is its models' process
process.on('disconnect', () => process.exit(0));
