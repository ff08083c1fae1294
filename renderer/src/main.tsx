import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { connectStores } from './stores/connect'
import './styles.css'

const root = document.getElementById('root')
if (root) {
  if (window.llamaTray) {
    connectStores(window.llamaTray)
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    )
  } else {
    root.textContent = 'This page is the Llama Tray dashboard: open it from the tray icon.'
  }
}
