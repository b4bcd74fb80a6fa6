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


class Ticket(models.Model):
    id = ULIDField(primary_key=True)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="tickets")
