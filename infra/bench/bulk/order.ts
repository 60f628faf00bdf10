// One bulk order through the public API, timed from the process request to the
// socket.io event that says it is finished with all three files; shared by the
// benchmarks that submit orders.
import { type BulkFilesReply, isTerminalBulkStatus, type OrderProgress } from '@flatship/proto';
import { io, type Socket } from 'socket.io-client';
import type { createStackApi } from '../../src/testing/start-stack';

type StackApi = ReturnType<typeof createStackApi>;

export function connectSocket(url: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url, { auth: { token }, transports: ['websocket'], reconnection: false });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => reject(new Error(`socket.io connection refused: ${err.message}`)));
  });
}

function joinRoom(socket: Socket, orderId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.emit('joinOrderRoom', `order_${orderId}`, (ack: { ok: boolean; message?: string }) =>
      ack.ok ? resolve() : reject(new Error(`joinOrderRoom refused: ${ack.message}`)),
    );
  });
}

const filesReady = (p: OrderProgress) =>
  Boolean(p.fileData?.pdfName && p.fileData.resultCSVName && p.fileData.autoConfirmCSVName);

export interface TimedOrder {
  orderId: string;
  /** Submit → the final event, files included. */
  seconds: number;
  /** Submit → 202 (validation, pricing, charge, rows and events written). */
  acceptedSeconds: number;
  /** Submit → the first progress event showing every row settled. */
  settledSeconds: number | null;
  progressEvents: number;
  last: OrderProgress;
}

export interface OrderToRun {
  userId: string;
  token: string;
  orderData: unknown[];
  source: string;
  fileName: string;
  timeoutMs: number;
  /** Called once the order is accepted and the clock runs (e.g. to sample memory until `onFinished`). */
  onStarted?: () => void;
}

/** Creates, submits and waits for one order; throws when it does not finish or its files are not all there. */
export async function runTimedOrder(api: StackApi, socket: Socket, order: OrderToRun): Promise<TimedOrder> {
  const { data } = await api<{ data: { orderId: string } }>('/api/orders/bulk/init', {
    method: 'POST',
    token: order.token,
    body: { userId: order.userId },
  });
  const { orderId } = data;
  await joinRoom(socket, orderId);

  let events = 0;
  let settledAt: number | null = null;
  let onProgress: (p: OrderProgress) => void = () => {};
  const final = new Promise<OrderProgress>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`order ${orderId} not finished after ${order.timeoutMs / 1000} s`)),
      order.timeoutMs,
    );
    onProgress = (p) => {
      events++;
      if (settledAt === null && p.processedCount + p.failedCount >= p.totalCount) settledAt = performance.now();
      if (isTerminalBulkStatus(p.status) && filesReady(p)) {
        clearTimeout(timer);
        resolve(p);
      }
    };
  });
  const listener = (p: OrderProgress) => {
    if (p.orderId === orderId) onProgress(p);
  };
  socket.on('orderProgress', listener);
  try {
    order.onStarted?.();
    const start = performance.now();
    await api(`/api/orders/bulk/process/${order.userId}`, {
      method: 'POST',
      token: order.token,
      body: { orderId, orderData: order.orderData, source: order.source, fileName: order.fileName },
    });
    const acceptedAt = performance.now();
    const last = await final;
    const end = performance.now();
    const files = await api<BulkFilesReply>(`/api/orders/bulk/files/${orderId}`, { token: order.token });
    if (!(files.pdf && files.resultCSV && files.autoConfirm)) {
      throw new Error(`order ${orderId} reported files ready but GET /bulk/files says ${JSON.stringify(files)}`);
    }
    return {
      orderId,
      seconds: (end - start) / 1000,
      acceptedSeconds: (acceptedAt - start) / 1000,
      settledSeconds: settledAt === null ? null : (settledAt - start) / 1000,
      progressEvents: events,
      last,
    };
  } finally {
    socket.off('orderProgress', listener);
    socket.emit('leaveOrderRoom', `order_${orderId}`, () => {});
  }
}
