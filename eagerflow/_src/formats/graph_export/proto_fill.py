"""Plain data (dicts with a message's field names, lists for repeated fields, dicts for map fields)
filled into a protobuf message. One generic filler keeps the writers free of protobuf calls: they
build data that tests read directly, and this turns it into the message at the end."""
from __future__ import annotations


def fill(message, data):
    """Sets `message`'s fields from `data`; returns the message. An empty dict for a message
    field marks it present (an empty `list` AttrValue, a `none_value`)."""
    fields = message.DESCRIPTOR.fields_by_name
    for key, value in data.items():
        field = fields.get(key)
        if field is None:
            raise KeyError(f"{message.DESCRIPTOR.full_name} has no field {key!r}")
        target = getattr(message, key)
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            value_field = field.message_type.fields_by_name["value"]
            for k, v in value.items():
                if value_field.message_type is not None:
                    fill(target[k], v)
                else:
                    target[k] = v
        elif _is_repeated(field):
            if field.message_type is not None:
                for item in value:
                    fill(target.add(), item)
            else:
                target.extend(value)
        elif field.message_type is not None:
            target.SetInParent()
            fill(target, value)
        else:
            setattr(message, key, value)
    return message


def _is_repeated(field):
    repeated = getattr(field, "is_repeated", None)
    return repeated if repeated is not None else field.label == field.LABEL_REPEATED
