import { createLogger, runService } from '@flatship/kit';
import { createBtcpaySimulator } from './app';
import { loadBtcpayConfig } from './config';

await runService('btcpay', async () => {
  const config = loadBtcpayConfig();
  const logger = createLogger('btcpay', config.LOG_LEVEL);
  const app = createBtcpaySimulator({
    storeId: config.BTCPAY_STORE_ID,
    apiKey: config.BTCPAY_API_KEY,
    webhookUrl: config.BTCPAY_WEBHOOK_URL,
    webhookSecret: config.BTCPAY_WEBHOOK_SECRET,
    publicUrl: config.BTCPAY_PUBLIC_URL,
    dataFile: config.BTCPAY_DATA_FILE,
    logger,
  });
  return { app, host: config.HOST, port: config.PORT, close: async () => {} };
});
