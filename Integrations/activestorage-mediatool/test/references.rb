# frozen_string_literal: true

require "open3"
require "json"
require "vips"

# What trusted tools say a file shows, for the tests and scripts/realworld: ffprobe for videos,
# vips for pictures, ImageHash for perceptual hashes.
module References
  module_function

  # What ffprobe says the first video stream shows: its coded size, the pixel aspect and the
  # display matrix's rotation applied. Nil when ffprobe finds no video stream.
  def ffprobe_shown_size(path)
    output, status = Open3.capture2("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_streams", "-of", "json", path)
    return nil unless status.success?

    stream = JSON.parse(output).fetch("streams", []).first or return nil
    width, height = stream["width"], stream["height"]
    return nil unless width.to_i.positive? && height.to_i.positive?

    sar = stream["sample_aspect_ratio"].to_s.split(":").map(&:to_i)
    width = (width * sar[0].to_r / sar[1]).round if sar.size == 2 && sar.all?(&:positive?)
    rotation = Array(stream["side_data_list"]).map { |data| data["rotation"] }.compact.first.to_i
    rotation % 180 == 0 ? [width, height] : [height, width]
  end

  # ImageHash's dHash and pHash of a picture turned upright by its EXIF orientation, as a Rails
  # app would get them from Python: PyPI's ImageHash, which scripts/bootstrap test installs in the
  # repository's .build/references.
  IMAGEHASH_PYTHON = File.expand_path("../../../.build/references/bin/python", __dir__)

  def imagehash(path)
    script = "import sys, imagehash; from PIL import Image, ImageOps; " \
             "image = ImageOps.exif_transpose(Image.open(sys.argv[1])); print(imagehash.dhash(image), imagehash.phash(image))"
    output, status = Open3.capture2(IMAGEHASH_PYTHON, "-c", script, path)
    raise "ImageHash could not hash #{path}" unless status.success?

    output.split
  end

  # The size vips shows a picture at, its orientation applied. (vips 8.14 reads a HEIF's size
  # before its irot: pillow_heif's guitar_cw90.hif is 7008x4672 to it, 4672x7008 to heif-convert.)
  def vips_shown_size(path)
    image = Vips::Image.new_from_file(path).autorot
    [image.width, image.height]
  end
end
