# frozen_string_literal: true

require "tmpdir"
require "fileutils"
require "tempfile"

module ActiveStorage
  module Mediatool
    # What the analyzers and the previewer ask of mediatool, with the app's settings: a probe,
    # and a poster. Served by processes kept for each (`ServerPool`), or by a run a blob when
    # serving is off or a path cannot be sent on a line.
    class Tool
      attr_reader :binary

      # Nothing written but the manifest.
      DIGESTS_RECIPE = '{"renditions": [], "storyboard": false, "preview": false, "web_video": false}'

      # mediatool's words (its error line without "mediatool: FILE: ", as its JSON's `error` has
      # it) for a file of no kind it reads: no format's signature in its first bytes, nothing at
      # all, a layout of a format its decoders do not take (a CMYK TIFF, a HEIF overlay). Every
      # other failure it reports is of a file it knows and refused: damaged, over a limit, slower
      # than --timeout.
      NOT_MEDIA = [
        /\Anot a media file FFmpeg can open: (Invalid data found when processing input|its bytes are of no format FFmpeg knows\b.*)\z/,
        /\Anot a PNG, JPEG, WebP, HEIF, AVIF or TIFF file\z/,
        /\Aan empty file\z/,
        /\A(TIFF|HEIF) .* (is|are) not supported\b/
      ].freeze

      def initialize(binary:, settings:)
        @binary = binary
        @settings = settings
        @lock = Mutex.new
        @pools = {}
      end

      # mediatool probe's report of the file, a Hash. Raises NotMedia for a file of no kind it
      # reads, Refused for one it knows and refused, another Error when it gave no answer.
      def probe(path)
        arguments = ["probe", *@settings.arguments, *location]
        report =
          if serves?(path)
            pool(:probe) { [binary, *arguments, "--serve"] }.answer(path)
          else
            line_of([binary, *arguments, "--json", "--quiet", "--", path], path)
          end
        checked(report)
      rescue NotStarted
        Binary.forget
        raise
      end

      # The file stripped of where and by whom (`mediatool strip`), written to `output`; its report,
      # a Hash with "removed" (what went, as "EXIF:GPS") and "changed". Raises as `probe` does.
      def strip(path, output)
        arguments = ["strip", "--json", "--quiet", "--overwrite", *@settings.strip_arguments, "-o", output]
        checked(line_of([binary, *arguments, "--", path], path))
      rescue NotStarted
        Binary.forget
        raise
      end

      # mediatool ingest's manifest of the file with a recipe of no outputs but the manifest: the
      # probe's fields, and the placeholders and hashes of the picture or the video's poster.
      def digests(path)
        folder = own_folder
        recipe = File.join(folder, "digests.json")
        File.write(recipe, DIGESTS_RECIPE) unless File.exist?(recipe)
        arguments = ["ingest", "--recipe", recipe, *@settings.arguments, *location]
        if serves?(path)
          manifests = File.join(folder, "manifests")
          report = pool(:ingest, folder) do
            [binary, *arguments, "--serve", "--out-dir", manifests, "--overwrite", "--no-fsync"]
          end.answer(path)
        else
          Dir.mktmpdir("activestorage-mediatool-") do |manifests|
            status, output, error = Command.run([binary, *arguments, "--json", "--quiet", "--out-dir", manifests, "--", path],
                                                timeout: run_deadline)
            raise failure(status, error, path) if output.empty? && !status.success?

            report = parse(output.lines.first.to_s)
          end
        end
        # The manifest's file is the answer's copy: not kept.
        FileUtils.rm_f(report["output"]) if report["output"].is_a?(String) && File.dirname(report["output"]) == File.join(folder, "manifests")
        raise verdict(report["error"]) unless report["status"] == "ok"

        report
      rescue NotStarted
        Binary.forget
        raise
      rescue SystemCallError => error
        raise Error, "its manifest could not be read: #{Mediatool.reason(error)}"
      end

      # A poster of the video (a frame worth showing, upright, tone mapped), as an open file of
      # the settings' `preview_format` (JPEG or AVIF) that is gone once closed.
      def poster(path)
        format = @settings.preview_format
        arguments = ["thumbnail", "--at", "auto", "--format", format, *@settings.arguments]
        return poster_by_run(path, arguments, format) unless serves?(path)

        folder = own_folder
        report = pool(:"thumbnail_#{format}", folder) do
          [binary, *arguments, "--serve", "--out-dir", folder, "--name", "{stem}.#{format == "jpeg" ? "jpg" : format}", "--overwrite", "--no-fsync"]
        end.answer(path)
        raise verdict(report["error"]) unless report["status"] == "ok"

        output = report["output"]
        raise Error, "its answer names no poster" unless output.is_a?(String) && File.dirname(output) == folder

        file = File.open(output, "rb")
        File.unlink(output)
        picture(file, format)
      rescue NotStarted
        Binary.forget
        raise
      rescue SystemCallError => error
        raise Error, "its poster could not be read: #{Mediatool.reason(error)}"
      end

      # The web video of the video at `path` (`mediatool transcode`: H.264 and AAC in an MP4
      # every browser plays, upright, SDR, `moov` first), as an open file that is gone once
      # closed, and mediatool's report of it. A run a video, under `deadline` seconds as a whole;
      # `--timeout` ends one that stalls. Raises as `probe` does.
      def web_video(path, height: 1080, deadline: @settings.web_video_deadline)
        Dir.mktmpdir("activestorage-mediatool-") do |folder|
          output = File.join(folder, "web.mp4")
          arguments = ["transcode", "--height", Integer(height).to_s, *@settings.arguments, "--json", "--quiet", "-o", output, "--", path]
          status, said, error = Command.run([binary, *arguments], timeout: deadline)
          raise failure(status, error, path) if said.empty? && !status.success?

          report = parse(said.lines.last.to_s)
          raise verdict(report["error"]) unless report["status"] == "ok"

          file = File.open(output, "rb")
          File.unlink(output)
          [file, report]
        end
      rescue NotStarted
        Binary.forget
        raise
      rescue SystemCallError => error
        raise Error, "its web video could not be read: #{Mediatool.reason(error)}"
      end

      def stop
        @lock.synchronize do
          @pools.each_value(&:stop)
          @pools.clear
          FileUtils.remove_entry(@own_folder, true) if @own_folder && @own_folder_owner == Process.pid
          @own_folder = nil
        end
      end

      # In a forked child (`ActiveSupport::ForkTracker`): the parent's processes and folder are
      # its own; this process starts its own at its first blob.
      def abandon
        @lock = Mutex.new
        @pools.each_value(&:abandon)
        @pools.clear
        @own_folder = nil
      end

      private
        # The blob's metadata holds the position unless the app says gps: false: mediatool's
        # outputs leave it out unless told, its reports keep it unless told.
        def location
          ["--location", @settings.gps ? "keep" : "remove"]
        end

        # The one JSON line a run of mediatool prints for `path`.
        def line_of(command, path)
          status, output, error = Command.run(command, timeout: run_deadline)
          raise failure(status, error, path) if output.empty? && !status.success?

          parse(output.lines.first.to_s)
        end

        # The report, its verdict raised unless it says "ok".
        def checked(report)
          raise verdict(report["error"]) unless report["status"] == "ok"

          report
        end

        def serves?(path)
          @settings.serve && !path.include?("\n")
        end

        # The pool of a kind of server (for posters, of the folder they write to: a folder gone
        # meanwhile, a /tmp cleaner's doing, gets a new pool writing to a new folder).
        def pool(kind, folder = nil)
          @lock.synchronize do
            key = [kind, folder]
            @pools[key] ||= begin
              stale = @pools.keys.select { |other| other.first == kind }
              stale.each { |other| @pools.delete(other).stop }
              argv = yield
              ServerPool.new(size: @settings.servers) { Server.new(argv, timeout: @settings.timeout) }
            end
          end
        end

        # A folder of this process's own (posters, manifests), made again if it was removed.
        def own_folder
          @lock.synchronize do
            unless @own_folder && @own_folder_owner == Process.pid && File.directory?(@own_folder)
              @own_folder = Dir.mktmpdir("activestorage-mediatool-")
              @own_folder_owner = Process.pid
            end
            @own_folder
          end
        end

        def poster_by_run(path, arguments, format)
          status, output, error = Command.run([binary, *arguments, "--quiet", "-o", "-", "--", path], timeout: run_deadline)
          raise failure(status, error, path) unless status.success? && !output.empty?

          file = Tempfile.new(["poster", ".#{format}"], binmode: true)
          file.write(output)
          file.rewind
          file.unlink
          picture(file, format)
        end

        # `file`, rewound, once it is seen to begin as a JPEG (or an AVIF: an `ftyp` of brand
        # `avif`) does: nothing else is attached.
        def picture(file, format)
          start = file.read(12).to_s
          file.rewind
          return file if format == "jpeg" && start.start_with?("\xFF\xD8\xFF".b)
          return file if format == "avif" && start.byteslice(4, 8) == "ftypavif".b

          file.close
          raise Error, "its poster is no #{format == "jpeg" ? "JPEG" : "AVIF"}"
        end

        def run_deadline
          @settings.timeout + Server::STARTING
        end

        def parse(line)
          report = JSON.parse(line)
          raise Error, "mediatool answered what is no report" unless report.is_a?(Hash)

          report
        rescue JSON::ParserError
          # Not its line quoted: a line of JSON names the path it was given.
          raise Error, "mediatool answered what is no JSON"
        end

        # A run that failed, from its status and standard error. Only status 1 with a line about
        # `path` ("mediatool: PATH: what went wrong") is mediatool's word on the file; anything
        # else (a usage error's 64, a signal, no line) is no answer about it.
        def failure(status, error, path)
          line = error.to_s.dup.force_encoding(Encoding::UTF_8).scrub.lines.last.to_s.strip
          about_the_file = line.delete_prefix("mediatool: #{path}: ")
          return verdict(about_the_file) if status.exitstatus == 1 && about_the_file != line

          said = line.delete_prefix("mediatool: ").gsub(path, "its input")[0, 300]
          ended = status.exitstatus ? "status #{status.exitstatus}" : "signal #{status.termsig}"
          Error.new("mediatool ended with #{ended}#{": #{said}" unless said.empty?}")
        end

        # mediatool's failure on a file, as the error it is: a kind it does not read, or refused.
        # No line at all is no verdict.
        def verdict(said)
          return Error.new("mediatool failed and said nothing") if said.to_s.empty?

          said = said.to_s[0, 300]
          NOT_MEDIA.any? { |words| words.match?(said) } ? NotMedia.new(said) : Refused.new(said)
        end
    end
  end
end
