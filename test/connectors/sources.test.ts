import { localHarness } from './harnesses.js';
import { sourceContract } from './source-contract.js';

sourceContract('local folder', localHarness);
