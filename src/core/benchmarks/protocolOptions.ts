/**
 * Turns `--option key=value` strings into typed protocol options, checked against the
 * protocol's OptionSpecs. Unknown keys and bad values are InputErrors, never ignored.
 */
import { InputError, type OptionValue, type Protocol, type ProtocolSpec } from '../model';
import { checkUncertaintyOptions } from '../uncertainty/options';

export function resolveProtocolFromSpecs(
  benchmark: string,
  specs: readonly ProtocolSpec[],
  name: string | undefined,
  raw: Record<string, string>,
): Protocol {
  const spec = name === undefined ? (specs.find((s) => s.default) ?? specs[0]) : specs.find((s) => s.name === name);
  if (!spec) {
    throw new InputError(`unknown protocol "${name}" for ${benchmark} (known: ${specs.map((s) => s.name).join(', ')})`);
  }
  const options: Record<string, OptionValue> = {};
  for (const o of spec.options) if (o.default !== null) options[o.key] = o.default;
  for (const [key, value] of Object.entries(raw)) {
    const o = spec.options.find((x) => x.key === key);
    if (!o) {
      throw new InputError(
        `unknown option "${key}" for ${benchmark} protocol ${spec.name} (known: ${spec.options.map((x) => x.key).join(', ') || 'none'})`,
      );
    }
    options[key] = parseOptionValue(benchmark, o.key, o.kind, value, o.choices);
  }
  checkUncertaintyOptions(benchmark, options);
  return { name: spec.name, options };
}

function parseOptionValue(
  benchmark: string,
  key: string,
  kind: 'number' | 'boolean' | 'enum' | 'string',
  value: string,
  choices?: readonly OptionValue[],
): OptionValue {
  const bad = (why: string) => new InputError(`option ${key}=${value} for ${benchmark}: ${why}`);
  switch (kind) {
    case 'number': {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) throw bad('not a number');
      return n;
    }
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(value)) return true;
      if (/^(false|0|no|off)$/i.test(value)) return false;
      throw bad('expected true or false');
    case 'enum':
      if (choices && !choices.map(String).includes(value)) throw bad(`expected one of ${choices.join(', ')}`);
      return choices?.find((c) => String(c) === value) ?? value;
    default:
      return value;
  }
}
