import { s3Harness } from './harnesses.js';
import { routeContract } from './route-contract.js';

routeContract('S3 (moto)', 's3', s3Harness);
