/**
 * English names of currency codes for the currencies endpoint. The runtime's ICU data names
 * almost every ISO 4217 code, withdrawn ones included; the units that are not money in the
 * usual sense get fixed names here, so that they read the same whatever the runtime's ICU
 * version: metals are priced per troy ounce, and the SDR is the IMF's unit of account.
 */
const FIXED_NAMES: Readonly<Record<string, string>> = {
  XAU: 'Gold (troy ounce)',
  XAG: 'Silver (troy ounce)',
  XPT: 'Platinum (troy ounce)',
  XPD: 'Palladium (troy ounce)',
  XDR: 'Special drawing rights',
  // Codes some ICU versions do not name.
  ZWN: 'Zimbabwean Dollar (2006–2008)',
  ZWG: 'Zimbabwe Gold',
  VED: 'Venezuelan Bolívar Digital',
};

const displayNames = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'none' });
const names = new Map<string, string>();

/** The English name of a three-letter code; a code nobody names is its own name. */
export function currencyName(code: string): string {
  let name = names.get(code);
  if (name === undefined) {
    name = FIXED_NAMES[code] ?? nameFromRuntime(code) ?? code;
    names.set(code, name);
  }
  return name;
}

function nameFromRuntime(code: string): string | undefined {
  try {
    return displayNames.of(code);
  } catch {
    // Not a well-formed code.
    return undefined;
  }
}
