import type {
  CertificateDesignSave,
  PainelCertificateDesign,
  PainelResultPhoto,
  ResultImportBody,
  ResultLinks,
  ResultPhotoFileAnswer,
  ResultPreview,
  ResultPublish,
  Timer,
  TimerBody,
} from '@passada/core/contracts/results';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { painelFetch, painelFile } from '../../shell/painel-api.ts';
import { saveFile } from '../../shell/utils/save-file.ts';

/** The timers and the titles of their files' columns, set once and reused by every import. */
export const useTimers = () =>
  useQuery({
    queryKey: ['painel', 'cronometragens'],
    queryFn: ({ signal }) => painelFetch<Timer[]>('/cronometragens/', { signal }),
  });

export function useSaveTimer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: TimerBody) => painelFetch<Timer>('/cronometragens/', { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['painel', 'cronometragens'] }),
  });
}

/** A timer's file read into a preview (docs/decisions/0064): nothing is public until it is published. */
export const useImportResults = (eventId: number) =>
  useMutation({
    mutationFn: (body: ResultImportBody) =>
      painelFetch<ResultPreview>(`/events/${eventId}/resultados/importacoes/`, { method: 'POST', body }),
  });

/** Publishes a preview: the event's results (of the file's day) replaced, places computed. */
export const usePublishResults = (eventId: number) =>
  useMutation({
    mutationFn: (importId: number) =>
      painelFetch<ResultPublish>(`/events/${eventId}/resultados/importacoes/${importId}/publicar/`, {
        method: 'POST',
      }),
  });

const linksKey = (eventId: number) => ['painel', 'resultados', eventId, 'loja'] as const;

/** The event's finisher shirt and next edition, which each finisher's page and e-mail offer. */
export const useResultLinks = (eventId: number) =>
  useQuery({
    queryKey: linksKey(eventId),
    queryFn: ({ signal }) => painelFetch<ResultLinks>(`/events/${eventId}/resultados/loja/`, { signal }),
  });

export function useSaveResultLinks(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ResultLinks) =>
      painelFetch<ResultLinks>(`/events/${eventId}/resultados/loja/`, { method: 'PUT', body }),
    onSuccess: (links) => client.setQueryData(linksKey(eventId), links),
  });
}

const designKey = (eventId: number) => ['painel', 'resultados', eventId, 'certificado'] as const;

/** The event's certificate design (layout, colour, signature, message) with the version to save from. */
export const useCertificateDesign = (eventId: number) =>
  useQuery({
    queryKey: designKey(eventId),
    queryFn: ({ signal }) =>
      painelFetch<PainelCertificateDesign>(`/events/${eventId}/resultados/certificado/`, { signal }),
  });

/** Saves the design read at `versao` (409 `versao_desatualizada` when someone saved since). */
export function useSaveCertificateDesign(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CertificateDesignSave) =>
      painelFetch<PainelCertificateDesign>(`/events/${eventId}/resultados/certificado/`, {
        method: 'PUT',
        body,
      }),
    onSuccess: (design) => client.setQueryData(designKey(eventId), design),
  });
}

/** Downloads a certificate of a made-up finisher in the saved design; false when the server said no. */
export async function downloadSampleCertificate(eventId: number): Promise<boolean> {
  const file = await painelFile(
    `/events/${eventId}/resultados/certificado/amostra.pdf`,
    'certificado-amostra.pdf',
  );
  if (file) saveFile(file);
  return file !== null;
}

const photosKey = (eventId: number) => ['painel', 'resultados', eventId, 'fotos'] as const;

/** The race's photos with their bibs; asked again every few seconds while one is still processed. */
export const useResultPhotos = (eventId: number) =>
  useQuery({
    queryKey: photosKey(eventId),
    queryFn: ({ signal }) =>
      painelFetch<PainelResultPhoto[]>(`/events/${eventId}/resultados/fotos/`, { signal }),
    refetchInterval: (query) => (query.state.data?.some((p) => p.status === 'processando') ? 2000 : false),
  });

/** One photo of the album uploaded (the page sends the chosen files one after the other). */
export function useUploadResultPhoto(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('foto', file);
      return painelFetch<PainelResultPhoto>(`/events/${eventId}/resultados/fotos/`, {
        method: 'POST',
        body: form,
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: photosKey(eventId) }),
  });
}

/** A photo's bibs set by hand. */
export function useTagResultPhoto(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, numeros }: { id: number; numeros: number[] }) =>
      painelFetch<PainelResultPhoto>(`/events/${eventId}/resultados/fotos/${id}/`, {
        method: 'PUT',
        body: { numeros },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: photosKey(eventId) }),
  });
}

/** The timer's file of bibs per photo. */
export function useTagResultPhotosFromFile(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (conteudo: string) =>
      painelFetch<ResultPhotoFileAnswer>(`/events/${eventId}/resultados/fotos/numeros/`, {
        method: 'POST',
        body: { conteudo },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: photosKey(eventId) }),
  });
}

export function useRemoveResultPhoto(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      painelFetch<null>(`/events/${eventId}/resultados/fotos/${id}/`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: photosKey(eventId) }),
  });
}
