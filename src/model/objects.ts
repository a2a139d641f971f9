/** Prototype-safe object access: user data may hold keys such as `__proto__` or `constructor`. */

/** Sets an own enumerable property, even for the key `__proto__`, without touching any prototype. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** An own property's value (never an inherited one such as `constructor`). */
export function ownValue<T>(target: { readonly [key: string]: T }, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(target, key) ? target[key] : undefined;
}
