/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import vue from "@vitejs/plugin-vue";

// Built assets are served by Django (whitenoise) under /static/; the manifest tells the
// Django template which hashed files to include.
export default defineConfig({
  plugins: [vue()],
  base: "/static/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    rollupOptions: { input: "src/main.ts" },
  },
  test: {
    // Most tests are pure TypeScript: a DOM (happy-dom) only where a file asks for one with
    // a `// @vitest-environment happy-dom` first line (mounting components, DOMParser,
    // localStorage); setting one up for every file took half of `npm test`.
    environment: "node",
    include: ["tests/**/*.test.ts"],
  },
});
