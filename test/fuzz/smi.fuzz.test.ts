import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { inventoryFromSmiXml, inventoryFromSmiXmlJson } from '../../app/telemetry/gpu/inventory'
import { parseSmiLine, parseSmiNumber } from '../../app/telemetry/gpu/smi-csv'
import { SMI_FIELDS } from '../../app/telemetry/gpu/smi-fields'
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS, WorstCase } from './fuzz-runs'

const CSV_PIECES = [
  ',',
  ' ',
  '[N/A]',
  '[Not Supported]',
  'N/A',
  '0',
  '-1',
  '1e308',
  'NaN',
  'Infinity',
  '99999999999999999999',
  '8188 MiB',
  'P0',
  'P8',
  '0x0000000000000004',
  'NVIDIA GeForce RTX 4070 Laptop GPU',
  '\u0000',
  '\u001b[31m',
  '"',
  '\n',
]
const csvLine = fc
  .array(fc.oneof(fc.constantFrom(...CSV_PIECES), fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 48 })
  .map((p) => p.join(''))

const XML_PIECES = [
  '<?xml version="1.0" ?>',
  '<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">',
  '<nvidia_smi_log>',
  '</nvidia_smi_log>',
  '<gpu id="00000000:01:00.0">',
  '</gpu>',
  '<product_name>',
  '</product_name>',
  'NVIDIA',
  '<fb_memory_usage><total>',
  '8188 MiB',
  '</total></fb_memory_usage>',
  '<minor_number>',
  '0',
  'N/A',
  '</minor_number>',
  '<driver_model><current_dm>WDDM</current_dm></driver_model>',
  '<driver_version>566.36</driver_version>',
  '&amp;',
  '&lt;',
  '&#0;',
  '&bogus;',
  '<![CDATA[x]]>',
  '<!-- c -->',
  '<a b="c">',
  '</a>',
  '<',
  '>',
  '\u0000',
  '\u001b[2J',
]

describe('fuzzing the nvidia-smi parsers', () => {
  it(
    'parseSmiLine and parseSmiNumber never throw, and a device they return has a whole index',
    () => {
      const worst = new WorstCase('nvidia-smi CSV')
      fc.assert(
        fc.property(csvLine, fc.integer({ min: 1, max: SMI_FIELDS.length }), (line, fieldCount) => {
          worst.measureSync(JSON.stringify(line).slice(0, 80), () => {
            const device = parseSmiLine(line, SMI_FIELDS.slice(0, fieldCount))
            if (device !== null) expect(Number.isInteger(device.index)).toBe(true)
            const n = parseSmiNumber(line, 0, 1e6)
            if (n !== null) expect(n >= 0 && n <= 1e6).toBe(true)
          })
        }),
        { numRuns: FUZZ_RUNS },
      )
      worst.report()
    },
    FUZZ_TIMEOUT_MS,
  )

  it(
    'inventoryFromSmiXml answers an inventory or an error for any text, never a throw',
    async () => {
      const worst = new WorstCase('nvidia-smi XML')
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.oneof(fc.constantFrom(...XML_PIECES), fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 40 }),
          async (pieces) => {
            const xml = pieces.join('')
            const result = await worst.measure(JSON.stringify(xml).slice(0, 80), () => inventoryFromSmiXml(xml))
            if ('error' in result) expect(result.error).toMatch(/^nvidia-smi -q -x printed /)
            else expect(Array.isArray(result.gpus)).toBe(true)
          },
        ),
        { numRuns: FUZZ_RUNS },
      )
      worst.report()
    },
    FUZZ_TIMEOUT_MS,
  )

  it(
    'inventoryFromSmiXmlJson takes any JSON value',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.jsonValue(),
            fc.record({
              nvidia_smi_log: fc.record({ gpu: fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue())), driver_version: fc.jsonValue() }),
            }),
          ),
          (data) => {
            const inventory = inventoryFromSmiXmlJson(data)
            if (inventory) for (const g of inventory.gpus) expect(Number.isInteger(g.index)).toBe(true)
          },
        ),
        { numRuns: FUZZ_RUNS },
      )
    },
    FUZZ_TIMEOUT_MS,
  )
})
