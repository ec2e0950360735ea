"""Django admin: a fallback for admins; the product's own pages are under /manage/."""

from django.contrib import admin

from annotation import models


@admin.register(models.Project)
class ProjectAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "hierarchy",
        "anaphora",
        "single_parent",
        "created_at",
    )
    search_fields = ("name",)


@admin.register(models.Topic)
class TopicAdmin(admin.ModelAdmin):
    list_display = ("external_id", "project", "source", "position")
    list_filter = ("project",)
    search_fields = ("external_id",)


@admin.register(models.Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("topic", "user", "role", "status", "submitted_at")
    list_filter = ("status", "role", "topic__project")
    search_fields = ("topic__external_id", "user__username")
    raw_id_fields = ("topic",)


@admin.register(models.Annotation)
class AnnotationAdmin(admin.ModelAdmin):
    """Read-only: annotations change only through operations, so the log stays complete."""

    list_display = ("id", "topic", "kind", "assignment", "version", "updated_at")
    list_filter = ("kind", "topic__project")

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(models.Operation)
class OperationAdmin(admin.ModelAdmin):
    list_display = ("annotation", "version", "kind", "name", "user", "created_at")
    list_filter = ("kind", "name")

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
