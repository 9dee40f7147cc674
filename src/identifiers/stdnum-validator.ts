/** One place to take a validator out of the npm `stdnum` port, failing loudly if it moved. */
import { stdnum, type Validator } from 'stdnum';

export function stdnumValidator(country: string, name: string): Validator {
  const found = stdnum[country]?.[name];
  if (!found) throw new Error(`stdnum has no ${country}.${name} validator`);
  return found;
}
