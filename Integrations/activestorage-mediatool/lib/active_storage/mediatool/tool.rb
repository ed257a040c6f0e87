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
      DIGESTS_RECIPE = '{"renditions": [], "storyboard": false, "preview": false}'

      def initialize(binary:, settings:)
        @binary = binary
        @settings = settings
        @lock = Mutex.new
        @pools = {}
      end

      # mediatool probe's report of the file, a Hash; raises Error when it could not be read.
      def probe(path)
        arguments = ["probe", *@settings.arguments, *("--no-gps" unless @settings.gps)]
        report =
          if serves?(path)
            pool(:probe) { [binary, *arguments, "--serve"] }.answer(path)
          else
            status, output, error = Command.run([binary, *arguments, "--json", "--quiet", "--", path], timeout: run_deadline)
            raise Error, last_line(error, path) if output.empty? && !status.success?

            parse(output.lines.first.to_s)
          end
        raise Error, report["error"].to_s unless report["status"] == "ok"

        report
      end

      # mediatool ingest's manifest of the file with a recipe of no outputs but the manifest: the
      # probe's fields, and the placeholders and hashes of the picture or the video's poster.
      def digests(path)
        folder = own_folder
        recipe = File.join(folder, "digests.json")
        File.write(recipe, DIGESTS_RECIPE) unless File.exist?(recipe)
        arguments = ["ingest", "--recipe", recipe, *@settings.arguments, *("--no-gps" unless @settings.gps)]
        if serves?(path)
          manifests = File.join(folder, "manifests")
          report = pool(:ingest, folder) do
            [binary, *arguments, "--serve", "--out-dir", manifests, "--overwrite", "--no-fsync"]
          end.answer(path)
        else
          Dir.mktmpdir("activestorage-mediatool-") do |manifests|
            status, output, error = Command.run([binary, *arguments, "--json", "--quiet", "--out-dir", manifests, "--", path],
                                                timeout: run_deadline)
            raise Error, last_line(error, path) if output.empty? && !status.success?

            report = parse(output.lines.first.to_s)
          end
        end
        # The manifest's file is the answer's copy: not kept.
        FileUtils.rm_f(report["output"]) if report["output"].is_a?(String) && File.dirname(report["output"]) == File.join(folder, "manifests")
        raise Error, report["error"].to_s unless report["status"] == "ok"

        report
      rescue SystemCallError => error
        raise Error, "its manifest could not be read: #{Mediatool.reason(error)}"
      end

      # A poster of the video (a frame worth showing, upright, tone mapped), as an open JPEG
      # file that is gone once closed.
      def poster(path)
        arguments = ["thumbnail", "--at", "auto", "--format", "jpeg", *@settings.arguments]
        return poster_by_run(path, arguments) unless serves?(path)

        folder = own_folder
        report = pool(:thumbnail, folder) do
          [binary, *arguments, "--serve", "--out-dir", folder, "--name", "{stem}.jpg", "--overwrite", "--no-fsync"]
        end.answer(path)
        raise Error, report["error"].to_s unless report["status"] == "ok"

        output = report["output"]
        raise Error, "its answer names no poster" unless output.is_a?(String) && File.dirname(output) == folder

        file = File.open(output, "rb")
        File.unlink(output)
        jpeg(file)
      rescue SystemCallError => error
        raise Error, "its poster could not be read: #{Mediatool.reason(error)}"
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

        def poster_by_run(path, arguments)
          status, output, error = Command.run([binary, *arguments, "--quiet", "-o", "-", "--", path], timeout: run_deadline)
          raise Error, last_line(error, path) unless status.success? && !output.empty?

          file = Tempfile.new(["poster", ".jpg"], binmode: true)
          file.write(output)
          file.rewind
          file.unlink
          jpeg(file)
        end

        # `file`, rewound, once it is seen to begin as a JPEG does: nothing else is attached.
        def jpeg(file)
          start = file.read(3)
          file.rewind
          return file if start == "\xFF\xD8\xFF".b

          file.close
          raise Error, "its poster is no JPEG"
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

        # mediatool's error line for `path`, without "mediatool: PATH: " (as its JSON's `error`).
        def last_line(error, path)
          line = error.to_s.dup.force_encoding(Encoding::UTF_8).scrub.lines.last.to_s.strip
          line = line.delete_prefix("mediatool: ").delete_prefix("#{path}: ")
          line.empty? ? "mediatool failed" : line
        end
    end
  end
end
