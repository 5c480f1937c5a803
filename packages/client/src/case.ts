// Key conversion between the app's camelCase and the wire's snake_case, with the exact
// rules of the published SDK (PLATFORM_API.md §3.1).

/** `todoItems` → `todo_items`; every uppercase letter becomes `_` + lowercase (`userID` → `user_i_d`). */
export function camelToSnake(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** `due_at` → `dueAt`; only `_` followed by a lowercase letter is folded (`_1` is kept). */
export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function convertKeys(value: unknown, convert: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, convert));
  // Only plain objects are rebuilt. The published SDK also walks into Date (and other
  // class instances), turning them into `{}`; leaving them intact lets JSON.stringify
  // send a Date as its ISO string.
  if (!isPlainObject(value)) return value;
  const converted: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) converted[convert(key)] = convertKeys(item, convert);
  return converted;
}

/** Recursively converts object keys camel→snake (request bodies). */
export function keysToSnake(value: unknown): unknown {
  return convertKeys(value, camelToSnake);
}

/** Recursively converts object keys snake→camel (responses). */
export function keysToCamel(value: unknown): unknown {
  return convertKeys(value, snakeToCamel);
}
