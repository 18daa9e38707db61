// Evaluates registry dependency expressions such as `VK_KHR_foo+(VK_KHR_bar,VK_VERSION_1_1)`:
// `+` is AND, `,` is OR, parentheses group; the registry gives both operators equal precedence,
// evaluated left to right.

export function evaluateDepends(expression: string, isAvailable: (name: string) => boolean): boolean {
  const tokens = expression.match(/[A-Za-z0-9_:]+|[+,()]/g) ?? [];
  let pos = 0;

  const primary = (): boolean => {
    const token = tokens[pos++];
    if (token === '(') {
      const value = sequence();
      if (tokens[pos++] !== ')') throw new Error(`unbalanced parentheses in depends "${expression}"`);
      return value;
    }
    if (token === undefined || token === ')' || token === '+' || token === ',') {
      throw new Error(`malformed depends "${expression}"`);
    }
    return isAvailable(token);
  };

  const sequence = (): boolean => {
    let value = primary();
    while (tokens[pos] === '+' || tokens[pos] === ',') {
      const op = tokens[pos++];
      const rhs = primary();
      value = op === '+' ? value && rhs : value || rhs;
    }
    return value;
  };

  const result = sequence();
  if (pos !== tokens.length) throw new Error(`trailing tokens in depends "${expression}"`);
  return result;
}
