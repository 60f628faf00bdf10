export { type BusContractHarness, type BusContractOptions, runBusContract, waitFor } from '../bus/contract';
export * from './database';
export * from './embedded-pg';
export * from './kafka-mock';
export * from './keys';
export * from './metrics';
export * from './process';
