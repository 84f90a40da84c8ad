"""tf.image: resizing, colour, geometry, crops, patches, quality measures, non-max suppression."""
