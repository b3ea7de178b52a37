/** A thread of test/basisExchange.test.ts: the week's plant series computed with the exchange it is given. */
import { parentPort, workerData } from 'node:worker_threads';
import { BasisExchange, withBasisExchange } from '../src/world/basisExchange.ts';
import { exchangeTestSeries } from './basisExchange.test.ts';

const exchange = new BasisExchange(workerData.memory);
const series = withBasisExchange(exchange, () => exchangeTestSeries());
parentPort!.postMessage({ series, asked: exchange.asked, computed: exchange.computed });
