/**
 * Which three-letter codes are currencies. The runtime's ISO 4217 list holds the codes in use
 * today; publishers' histories also carry codes since withdrawn (the ECB quoted CYP until 2007),
 * precious metals and a few codes the runtime lacks, listed here.
 */
const WITHDRAWN_AND_MISSING = [
  // Withdrawn national currencies that official histories still contain.
  'ADP AFA ALK AOK AON AOR ARA ARP ATS AZM BEF BGL BYB BYR CSD CSK CYP DEM ECS EEK ESP FIM FRF',
  'GHC GRD GWP HRK IEP ITL LTL LUF LVL MGF MRO MTL MZM NLG PTE ROL RUR SDD SIT SKK SLL SRG STD',
  'TMM TRL VEB VEF XEU YUM ZMK ZWD ZWL ZWN ZWR',
  // In ISO 4217 but not in every runtime's list.
  'VED ZWG XDR XOF XAF XCD XPF CUC',
  // Precious metals, one troy ounce each.
  'XAU XAG XPT XPD',
].flatMap((line) => line.split(' '));

const CODES = new Set<string>([...Intl.supportedValuesOf('currency'), ...WITHDRAWN_AND_MISSING]);

export function isCurrencyCode(code: string): boolean {
  return CODES.has(code);
}

/**
 * Codes withdrawn at a redenomination whose successor took over on a day: 1 MRU = 10 MRO,
 * 1 STN = 1,000 STD, 1 VES = 100,000 VEF.
 */
const SUCCESSORS: Record<string, { code: string; from: string }> = {
  MRO: { code: 'MRU', from: '2018-01-01' },
  STD: { code: 'STN', from: '2018-01-01' },
  VEF: { code: 'VES', from: '2018-08-20' },
};

/**
 * The code a figure dated `date` is for, when its publisher kept printing a code withdrawn at a
 * redenomination past the day its successor took over (and quotes the successor, at its level):
 * the old code before that day, the successor's from it. Other codes are returned as they are.
 */
export function redenominatedCode(code: string, date: string): string {
  const successor = SUCCESSORS[code];
  return successor !== undefined && date >= successor.from ? successor.code : code;
}

/** Grams in one troy ounce (exactly), the unit of the ISO 4217 metal codes; some banks quote per gram. */
export const GRAMS_PER_TROY_OUNCE = '31.1034768';
