import { gdriveHarness } from './harnesses.js';
import { routeContract } from './route-contract.js';

routeContract('Google Drive (google-drive-mock emulator)', 'gdrive', gdriveHarness);
