/** The protocol and options the user chose (the report carries the ones that produced it). */
import type { StateCreator } from 'zustand';
import type { OptionValue, Protocol } from '../../core';
import type { BenchState } from './index';

export interface ProtocolSlice {
  protocol: Protocol | null;
  setProtocol: (p: Protocol) => void;
}

export const createProtocolSlice: StateCreator<BenchState, [], [], ProtocolSlice> = (set) => ({
  protocol: null,
  setProtocol: (protocol) => set({ protocol }),
});

/** The default options of a protocol spec (what a fresh choice of protocol starts from). */
export function defaultOptions(spec: { options: readonly { key: string; default: OptionValue | null }[] }): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = {};
  for (const o of spec.options) if (o.default !== null) out[o.key] = o.default;
  return out;
}
