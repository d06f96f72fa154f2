import { localHarness } from './harnesses.js';
import { routeContract } from './route-contract.js';

routeContract('a local folder', 'local', localHarness);
