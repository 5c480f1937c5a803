/**
 * A tiny SQL builder: values always become bound parameters, identifiers are quoted and
 * may only come from the schema (callers check them first). `toQuery` numbers the
 * parameters $1..$n for pg.
 */
export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  const outStrings: string[] = [strings[0] ?? ''];
  const outValues: unknown[] = [];
  values.forEach((value, i) => {
    const next = strings[i + 1] ?? '';
    if (value instanceof Sql) {
      outStrings[outStrings.length - 1] += value.strings[0] ?? '';
      for (let j = 0; j < value.values.length; j++) {
        outValues.push(value.values[j]);
        outStrings.push(value.strings[j + 1] ?? '');
      }
      outStrings[outStrings.length - 1] += next;
    } else {
      outValues.push(value);
      outStrings.push(next);
    }
  });
  return new Sql(outStrings, outValues);
}

/** Text that is trusted SQL (keywords, operators). Never pass input here. */
export function raw(text: string): Sql {
  return new Sql([text], []);
}

/** A quoted identifier. The name must already be checked against the schema. */
export function ident(name: string): Sql {
  return raw(`"${name.replaceAll('"', '""')}"`);
}

export function join(parts: readonly Sql[], separator: string): Sql {
  const strings: string[] = [''];
  const values: unknown[] = [];
  parts.forEach((part, i) => {
    strings[strings.length - 1] += (i > 0 ? separator : '') + (part.strings[0] ?? '');
    part.values.forEach((value, j) => {
      values.push(value);
      strings.push(part.strings[j + 1] ?? '');
    });
  });
  return new Sql(strings, values);
}

export const empty = raw('');

export function toQuery(fragment: Sql): { text: string; values: unknown[] } {
  let text = fragment.strings[0] ?? '';
  fragment.values.forEach((_, i) => {
    text += `$${i + 1}${fragment.strings[i + 1] ?? ''}`;
  });
  return { text, values: [...fragment.values] };
}
