// Quantisation names as people put them in file names (Q4_K_M, IQ4_XS, UD-Q4_K_XL, IQ4_KS_R4, BF16, MXFP4…).
const QUANT_IN_NAME = new RegExp(
  String.raw`(?:^|[-_.])((?:UD-)?(?:I?Q\d_K(?:_(?:XXS|XS|S|M|L|XL))?(?:_R\d)?|IQ\d_(?:XXS|XS|S|M|NL|KS` +
    String.raw`|KSS|KT|KL)(?:_R\d)?|Q\d_[01](?:_R\d)?|TQ\d_0|MXFP4|BF16|F16|F32))(?=[-_.]|$)`,
  'i',
)

/** The quantisation written in a file name, upper-cased; null when none is. */
export function quantisationFromName(fileName: string): string | null {
  const m = QUANT_IN_NAME.exec(fileName)
  return m?.[1] ? m[1].toUpperCase() : null
}

/** `name-00001-of-00003.gguf` → its part number and count; null for a single file. */
export function splitPart(fileName: string): { readonly index: number; readonly count: number } | null {
  const m = /-(\d{5})-of-(\d{5})\.gguf$/i.exec(fileName)
  return m ? { index: Number(m[1]), count: Number(m[2]) } : null
}
