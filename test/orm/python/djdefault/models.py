"""The Django models of django_db_default_check.py (Django 5.0+: db_default; migrations made at run time)."""
from django.db import models

from idtypes.django import TimeIDField, UID11Field, ULIDField, generator_call


class Order(models.Model):
    id = ULIDField(primary_key=True, db_default=generator_call("ulid"))
    name = models.TextField()
    tid = TimeIDField(db_default=generator_call("timeid"))
    u11 = UID11Field(db_default=generator_call("uid11"))
    seq = ULIDField(null=True, db_default=generator_call("ulid", "generate_ulid_monotonic"))


class Line(models.Model):
    id = UID11Field(primary_key=True, db_default=generator_call("uid11"))
    order = models.ForeignKey(Order, on_delete=models.CASCADE, related_name="lines")
