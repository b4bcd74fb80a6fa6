"""The Django models of django_check.py (its migrations are made at run time)."""
from django.db import models

from idtypes.django import EUIDField, TimeIDField, UID11Field, ULIDField, ULIDFlakeField


class Event(models.Model):
    id = ULIDField(primary_key=True)
    name = models.TextField()
    uid11 = UID11Field(null=True)
    timeid = TimeIDField(null=True)
    ulidflake = ULIDFlakeField(null=True)
    euid = EUIDField(null=True)
    # Filled by the database: the type's generator, or the one named.
    tid_gen = TimeIDField(null=True, generator=True)
    u11_gen = UID11Field(null=True, generator=True)
    seq = ULIDField(null=True, generator="generate_ulid_monotonic")
    at = models.DateTimeField(null=True)


class Ticket(models.Model):
    id = ULIDField(primary_key=True)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tickets")
