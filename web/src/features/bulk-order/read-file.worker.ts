import { OrderFileError, readOrderFile } from '@flatship/order-files';
import { type ReadReply, type ReadRequest, runRead } from './read-file-protocol';

// Parsing a 5,000-row spreadsheet takes long enough to freeze the page, so it runs here.
interface WorkerScope {
  onmessage: ((event: MessageEvent<ReadRequest>) => void) | null;
  postMessage(message: ReadReply): void;
}

const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  void runRead(readOrderFile, (error) => error instanceof OrderFileError, event.data).then((reply) =>
    scope.postMessage(reply),
  );
};
