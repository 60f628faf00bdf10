import { parentPort } from 'node:worker_threads';
import type { LabelData } from './label-data';
import { renderLabel } from './render-label';
import type { RenderReply, RenderRequest } from './render-pool';

// Runs inside a render thread: one label per message, the PDF handed back without a copy.
if (!parentPort) throw new Error('render-worker must run in a worker thread');
const port = parentPort;

port.on('message', async ({ id, data }: RenderRequest) => {
  let reply: RenderReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const pdf = await renderLabel(data as LabelData);
    // A Buffer may be a view on a shared pool slab; transfer only a buffer that holds exactly this PDF.
    const bytes =
      pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength
        ? (pdf.buffer as ArrayBuffer)
        : (pdf.buffer.slice(pdf.byteOffset, pdf.byteOffset + pdf.byteLength) as ArrayBuffer);
    reply = { id, ok: true, pdf: bytes };
    transfer = [bytes];
  } catch (err) {
    reply = { id, ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply, transfer);
});
