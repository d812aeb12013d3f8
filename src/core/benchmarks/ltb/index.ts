/** LTB — placeholder adapter until the protocol lands (detects nothing, scores nothing). */
import { InputError, type BenchmarkAdapter, type DatasetInfo } from '../../model';
import { resolveProtocolFromSpecs } from '../protocolOptions';

const protocols = [{ name: 'default', description: 'not implemented yet', default: true, options: [] }];

export const ltbAdapter: BenchmarkAdapter<{ info: DatasetInfo }> = {
  id: 'ltb',
  title: 'LTB',
  protocols,
  expects: 'not implemented yet',
  async detect() {
    return null;
  },
  resolveProtocol: (n, o) => resolveProtocolFromSpecs('ltb', protocols, n, o),
  async loadDataset() {
    throw new InputError('LTB is not implemented yet');
  },
  bundledPredictions: () => [],
  async loadPredictions() {
    throw new InputError('LTB is not implemented yet');
  },
  score() {
    throw new InputError('LTB is not implemented yet');
  },
};
