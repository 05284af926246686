// Every registered publisher, one line each; the order here means nothing (see registry.ts).
export { publisher as bcb } from './bcb.js';
export { publisher as bnro } from './bnro.js';
export { publisher as boc } from './boc.js';
export { publisher as boe } from './boe.js';
export { publisher as boi } from './boi.js';
export { publisher as cbn } from './cbn.js';
export { publisher as cbr } from './cbr.js';
export { publisher as cnb } from './cnb.js';
export { publisher as ecb } from './ecb.js';
export { publisher as float_rates } from './float-rates.js';
export { publisher as fred } from './fred.js';
export { publisher as imf } from './imf.js';
export { publisher as nbp } from './nbp.js';
export { publisher as nbt } from './nbt.js';
export { publisher as nbu } from './nbu.js';
export { publisher as rba } from './rba.js';
export { publisher as snb } from './snb.js';
