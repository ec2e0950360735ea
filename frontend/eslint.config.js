// ESLint for the frontend: the recommended JavaScript, typescript-eslint and Vue sets, with
// Prettier owning layout (eslint-config-prettier turns off every rule that would argue with it).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import vue from "eslint-plugin-vue";
import tseslint from "typescript-eslint";
import vueParser from "vue-eslint-parser";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "src/api/schema.d.ts", "src/api/schema.json"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  ...vue.configs["flat/recommended"],
  {
    files: ["**/*.ts", "**/*.vue"],
    languageOptions: {
      parser: vueParser,
      parserOptions: {
        parser: tseslint.parser,
        projectService: true,
        extraFileExtensions: [".vue"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // TypeScript (vue-tsc in the build) already refuses undefined names and knows the DOM
      // globals; typescript-eslint turns this off for .ts files and advises the same for .vue.
      "no-undef": "off",
      // `x == null` is the one loose comparison kept: it means "null or undefined".
      eqeqeq: ["error", "always", { null: "ignore" }],
      "@typescript-eslint/consistent-type-imports": "error",
      // As TypeScript's noUnusedParameters: a leading underscore marks a parameter kept for
      // its place in a signature; a rest's siblings are named to leave them out of it.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ["tests/**/*.ts"],
    rules: {
      // A test's fake of an async interface is an async function with nothing to await.
      "@typescript-eslint/require-await": "off",
      // Tests mount small host components beside the one they test.
      "vue/one-component-per-file": "off",
    },
  },
  {
    files: ["eslint.config.js"],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
);
