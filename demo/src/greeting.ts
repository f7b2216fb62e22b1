// A tiny module for the Agent Edit Guard demo.
export function greeting(name: string): string {
  return `Hello, ${name}!`;
}

export function farewell(name: string): string {
  return `Goodbye, ${name}.`;
}
