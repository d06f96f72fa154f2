import { sftpHarness } from './harnesses.js';
import { routeContract } from './route-contract.js';

routeContract('SFTP (OpenSSH)', 'sftp', sftpHarness);
