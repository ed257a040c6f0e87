# frozen_string_literal: true

module ActiveStorage
  module Mediatool
    # Where mediatool is: `ActiveStorage.paths[:mediatool]` (as Rails finds ffprobe and ffmpeg),
    # else `mediatool` on PATH. Found once a name; when there is none, that is said once in the
    # log and Rails' own analyzers and previewers do the work.
    module Binary
      @lock = Mutex.new
      @found = {}

      class << self
        def path
          configured = ActiveStorage.paths[:mediatool] if ActiveStorage.respond_to?(:paths) && ActiveStorage.paths
          @lock.synchronize do
            @found.fetch(configured) { @found[configured] = find(configured) }
          end
        end

        # Looked for again at the next call (a test, or an app that installs mediatool meanwhile).
        def forget
          @lock.synchronize { @found.clear }
        end

        private

          def find(configured)
            candidate = configured ? configured.to_s : search_path("mediatool")
            if candidate && File.file?(candidate) && File.executable?(candidate) && runs?(candidate)
              candidate
            else
              ActiveStorage.logger&.warn(
                "activestorage-mediatool: no mediatool #{configured ? "at #{configured}" : "on PATH"}: " \
                "Rails' own analyzers and previewers are used"
              )
              nil
            end
          end

          def search_path(name)
            ENV.fetch("PATH", "").split(File::PATH_SEPARATOR).each do |folder|
              candidate = File.join(folder, name)
              return candidate if File.file?(candidate) && File.executable?(candidate)
            end
            nil
          end

          def runs?(candidate)
            status, = Command.run([candidate, "--version"], timeout: 30)
            status.success?
          rescue Error, SystemCallError
            false
          end
      end
    end
  end
end
