import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { connectStores } from '../stores/connect'
import { Popover } from './Popover'
import '../styles.css'
import './popover.css'

const root = document.getElementById('root')
if (root) {
  if (window.llamaTray) {
    connectStores(window.llamaTray)
    createRoot(root).render(
      <StrictMode>
        <Popover />
      </StrictMode>,
    )
  } else {
    root.textContent = 'This page is the Llama Tray popover: open it from the tray icon.'
  }
}
