import { describe, expect, it } from 'vitest'
import { terminalText } from './terminal-text'

describe('terminalText', () => {
  it('removes C0 and C1 controls and DEL, keeping newline and tab', () => {
    expect(terminalText('a\u001b[31mb\u0007c\u009b2Jd\u007fe\u0000f\tg\nh')).toBe('a[31mbc2Jdef\tg\nh')
    expect(terminalText('title \u001b]0;pwned\u001b\\ end')).toBe('title ]0;pwned\\ end')
  })

  it('keeps our own redraw: a carriage return that starts the write and the erase-line sequences', () => {
    expect(terminalText('\r\u001b[2Kstatus: ready')).toBe('\r\u001b[2Kstatus: ready')
    expect(terminalText('\r12 %\u001b[K')).toBe('\r12 %\u001b[K')
    expect(terminalText('name\roverwritten')).toBe('nameoverwritten')
  })

  it('leaves ordinary text alone, Unicode included', () => {
    const text = 'Qwen3.6 – 35B «MoE» 🦙 日本語\n'
    expect(terminalText(text)).toBe(text)
  })
})
