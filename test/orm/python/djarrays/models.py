from django.contrib.postgres.fields import ArrayField
from django.db import models

from idtypes.django import EUIDField, TimeIDField, UID11Field, ULIDField, ULIDFlakeField


class Batch(models.Model):
    uid11s = ArrayField(UID11Field(), null=True)
    timeids = ArrayField(TimeIDField(), null=True)
    ulidflakes = ArrayField(ULIDFlakeField(), null=True)
    ulids = ArrayField(ULIDField(null=True), null=True)
    euids = ArrayField(EUIDField(), null=True)
