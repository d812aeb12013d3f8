/** PulseBench-Select — placeholder adapter until the protocol lands (detects nothing, scores nothing). */
import { InputError, type BenchmarkAdapter, type DatasetInfo } from '../../model';
import { resolveProtocolFromSpecs } from '../protocolOptions';

const protocols = [{ name: 'default', description: 'not implemented yet', default: true, options: [] }];

export const pulsebenchAdapter: BenchmarkAdapter<{ info: DatasetInfo }> = {
  id: 'pulsebench-select',
  title: 'PulseBench-Select',
  protocols,
  expects: 'not implemented yet',
  async detect() {
    return null;
  },
  resolveProtocol: (n, o) => resolveProtocolFromSpecs('pulsebench-select', protocols, n, o),
  async loadDataset() {
    throw new InputError('PulseBench-Select is not implemented yet');
  },
  bundledPredictions: () => [],
  async loadPredictions() {
    throw new InputError('PulseBench-Select is not implemented yet');
  },
  score() {
    throw new InputError('PulseBench-Select is not implemented yet');
  },
};
