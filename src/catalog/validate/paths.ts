/** Problem paths: JSON pointers shown without their leading slash (`hotels/0/id`). */

export function pointerKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function displayPath(pointer: string): string {
  return pointer === '' ? '(root)' : pointer.slice(1);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
