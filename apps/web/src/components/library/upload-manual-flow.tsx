import { useState } from 'react';
import { toast } from 'sonner';

import { useManualUpload } from '@/hooks/use-manual-upload';
import { errorMessage } from '@/lib/error-message';
import type { ReleaseVersion, Tag } from '@/lib/tables';

import { BulkUploadDialog } from './bulk-upload-dialog';
import type { ExtractedMetadata } from './manual-metadata';
import { ReviewMetadataDialog } from './review-metadata-dialog';
import { UploadModeDialog } from './upload-mode-dialog';
import { UploadSingleDialog, type UploadedManual } from './upload-single-dialog';

type Step = 'mode' | 'single' | 'bulk' | null;

type UploadManualFlowProps = {
  open: boolean;
  onClose: () => void;
  versions: ReleaseVersion[];
  tags: Tag[];
  /** Reports 'Manual Processed' or the warning once the server has ingested the saved manual. */
  watch: (manualId: string) => void;
};

/** Upload Manual: the mode choice, then Single File (with the review) or Bulk Upload (SPEC.md section 4). */
export function UploadManualFlow({ open, onClose, versions, tags, watch }: UploadManualFlowProps) {
  const steps = useManualUpload();
  const [step, setStep] = useState<Step>(null);
  const [uploaded, setUploaded] = useState<UploadedManual | null>(null);
  const current: Step = open && step === null && !uploaded ? 'mode' : step;

  const finish = () => {
    setStep(null);
    setUploaded(null);
    onClose();
  };

  const save = async (details: ExtractedMetadata & { tagIds: string[] }) => {
    if (!uploaded) return;
    try {
      const manual = await steps.save(uploaded.file, { ...details, versionId: uploaded.versionId });
      toast.success('Manual uploaded successfully');
      watch(manual.id);
      finish();
    } catch (error) {
      console.warn('Saving the manual failed', error);
      toast.error('Failed to save manual', { description: errorMessage(error, '') || undefined });
    }
  };

  const cancelReview = () => {
    if (uploaded) void steps.discard(uploaded.file.path);
    finish();
  };

  return (
    <>
      <UploadModeDialog open={current === 'mode'} onOpenChange={(next) => !next && finish()} onChoose={setStep} />
      <UploadSingleDialog
        open={current === 'single'}
        onOpenChange={(next) => !next && finish()}
        versions={versions}
        steps={steps}
        onUploaded={(result) => {
          if (result.file.notice) toast.info(result.file.notice);
          setUploaded(result);
          setStep(null);
        }}
      />
      <BulkUploadDialog open={current === 'bulk'} onOpenChange={(next) => !next && finish()} versions={versions} />
      <ReviewMetadataDialog
        metadata={uploaded?.file.metadata ?? null}
        fileName={uploaded?.file.fileName ?? ''}
        tags={tags}
        onSave={save}
        onCancel={cancelReview}
      />
    </>
  );
}
