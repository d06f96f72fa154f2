import { gdriveHarness, localHarness, s3Harness, sftpHarness } from './harnesses.js';
import { sourceContract } from './source-contract.js';

sourceContract('local folder', localHarness);
sourceContract('SFTP (OpenSSH)', sftpHarness);
sourceContract('S3 (moto)', s3Harness);
sourceContract('Google Drive (google-drive-mock emulator)', gdriveHarness);
