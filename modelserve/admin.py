from django.contrib import admin

from modelserve import models


@admin.register(models.SuggestionRun)
class SuggestionRunAdmin(admin.ModelAdmin):
    list_display = ("id", "topic", "backend", "status", "progress", "created_at", "finished_at")
    list_filter = ("status", "backend")


@admin.register(models.SuggestionSettings)
class SuggestionSettingsAdmin(admin.ModelAdmin):
    list_display = ("project", "backend")
