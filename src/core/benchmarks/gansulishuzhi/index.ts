/** gansulishuzhi — placeholder adapter until the protocol lands (detects nothing, scores nothing). */
import { InputError, type BenchmarkAdapter, type DatasetInfo } from '../../model';
import { resolveProtocolFromSpecs } from '../protocolOptions';

const protocols = [{ name: 'default', description: 'not implemented yet', default: true, options: [] }];

export const gansulishuzhiAdapter: BenchmarkAdapter<{ info: DatasetInfo }> = {
  id: 'gansulishuzhi',
  title: 'gansulishuzhi',
  protocols,
  expects: 'not implemented yet',
  async detect() {
    return null;
  },
  resolveProtocol: (n, o) => resolveProtocolFromSpecs('gansulishuzhi', protocols, n, o),
  async loadDataset() {
    throw new InputError('gansulishuzhi is not implemented yet');
  },
  bundledPredictions: () => [],
  async loadPredictions() {
    throw new InputError('gansulishuzhi is not implemented yet');
  },
  score() {
    throw new InputError('gansulishuzhi is not implemented yet');
  },
};
