import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** A folder laid out like /sys for LLAMA_TRAY_SYSFS: a laptop's NVIDIA GPU and power supplies, changed at will. */
export class FakeSysfs {
  readonly root = mkdtempSync(path.join(tmpdir(), 'llama-tray-sysfs-'))

  /** One attribute's text (folders made as needed). */
  write(relative: string, text: string): void {
    const file = path.join(this.root, relative)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, `${text}\n`)
  }

  /** A PCI function with its vendor and class, in the given power state. */
  pciDevice(address: string, vendor: string, pciClass: string, powerState: string, runtimeStatus: string): void {
    const base = `bus/pci/devices/${address}`
    this.write(`${base}/vendor`, vendor)
    this.write(`${base}/class`, pciClass)
    this.gpuPower(address, powerState, runtimeStatus)
  }

  /** The PCI function at `address` goes away (an eGPU unplugged, a GPU the ACPI switch removes). */
  removePciDevice(address: string): void {
    rmSync(path.join(this.root, 'bus/pci/devices', address), { recursive: true, force: true })
  }

  /** The NVIDIA GPU at `address` changes power state. */
  gpuPower(address: string, powerState: string, runtimeStatus: string): void {
    this.write(`bus/pci/devices/${address}/power_state`, powerState)
    this.write(`bus/pci/devices/${address}/power/runtime_status`, runtimeStatus)
  }

  /** A laptop: the charger's `online` and the battery's charge and status. */
  supplies(acOnline: boolean, batteryPercent: number, status: string): void {
    this.write('class/power_supply/AC/type', 'Mains')
    this.write('class/power_supply/AC/online', acOnline ? '1' : '0')
    this.write('class/power_supply/BAT0/type', 'Battery')
    this.write('class/power_supply/BAT0/capacity', String(batteryPercent))
    this.write('class/power_supply/BAT0/status', status)
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true })
  }
}
