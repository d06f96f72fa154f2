import { localHarness, sftpHarness } from './harnesses.js';
import { sourceContract } from './source-contract.js';

sourceContract('local folder', localHarness);
sourceContract('SFTP (OpenSSH)', sftpHarness);
