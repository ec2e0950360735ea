"""Project archives: one project carried whole into another instance (`manage.py
export_project` / `import_project`; docs/operations.md, "Project archives")."""
