/**
 * The scoring worker. It only exposes the API object: every function lives in scoringApi.ts so
 * the same code is testable in Node and the page imports nothing but its type.
 */
import { expose } from 'comlink';
import { scoringApi } from './scoringApi';

expose(scoringApi);
